// Types for the undici modules the forward path imports by file (see upstream-client.ts):
// undici's types describe its index only. Each is the index's export of the same name.
declare module 'undici/lib/dispatcher/agent.js' {
  export { Agent as default } from 'undici';
}
declare module 'undici/lib/core/errors.js' {
  export { errors as default } from 'undici';
}
