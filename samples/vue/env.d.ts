declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent<{ server: string }>;
  export default component;
}
