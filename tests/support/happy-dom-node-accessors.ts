/**
 * Test-only shim for happy-dom: its `Node.prototype` getters for `nodeName`, `nodeValue` and
 * `textContent` return generic values ("" for an element's name) and the real ones live on the
 * subclasses. Browsers, as the DOM standard says, answer correctly from `Node.prototype`, and
 * DOMPurify reads these accessors from there, so under happy-dom it would keep `<script>` and drop
 * `<body>`. Import this before anything that loads DOMPurify.
 */
const ACCESSORS = ['nodeName', 'nodeValue', 'textContent'] as const;

for (const key of ACCESSORS) {
  const base = Object.getOwnPropertyDescriptor(Node.prototype, key);
  if (!base?.get) continue;
  const baseGet = base.get;
  Object.defineProperty(Node.prototype, key, {
    ...base,
    get(this: Node) {
      for (let p = Object.getPrototypeOf(this); p && p !== Node.prototype; p = Object.getPrototypeOf(p)) {
        const own = Object.getOwnPropertyDescriptor(p, key);
        if (own?.get) return own.get.call(this);
      }
      return baseGet.call(this);
    },
  });
}
