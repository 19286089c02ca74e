/** har-schema ships the HAR 1.2 JSON schemas without types: one schema object per HAR type, by name. */
declare module 'har-schema' {
  const schemas: Record<string, object>;
  export default schemas;
}
