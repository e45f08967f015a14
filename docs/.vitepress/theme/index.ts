/** The docs' theme: VitePress's default one, plus the element pages' API tables and live examples. */
import DefaultTheme from 'vitepress/theme';
import type { Theme } from 'vitepress';
import ElementApi from './ElementApi.vue';
import LiveExample from './LiveExample.vue';

export default {
  extends: DefaultTheme,
  enhanceApp({ app }) {
    app.component('ElementApi', ElementApi);
    app.component('LiveExample', LiveExample);
  },
} satisfies Theme;
