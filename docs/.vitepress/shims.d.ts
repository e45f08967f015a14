// The theme's single-file components, for tsc (VitePress compiles them; `npm run typecheck` checks the .ts around them).
declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent;
  export default component;
}
