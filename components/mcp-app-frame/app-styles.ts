/**
 * The style variables `<mcp-app-frame>` gives its app (spec: ext-apps
 * `HostContext.styles`): the whole standard set, each colour computed for the
 * theme the app is told (concrete `rgb(…)`, never `light-dark()`, which an app
 * cannot resolve against the host's scheme), and the page's font CSS. Sent at
 * the handshake and again with every theme change, so an app that applies them
 * never keeps the other theme's colours.
 *
 * @module
 */

/** Standard colour variables: the kit's own custom property when it has one, else light and dark defaults. */
const COLORS: Record<string, [kit: string | undefined, light: string, dark: string]> = {
  '--color-background-primary': [undefined, '#ffffff', '#0d1117'],
  '--color-background-secondary': ['--mcp-color-surface', '#f6f8fa', '#161b22'],
  '--color-background-tertiary': [undefined, '#eaeef2', '#21262d'],
  '--color-background-inverse': [undefined, '#24292f', '#f0f6fc'],
  '--color-background-ghost': [undefined, 'transparent', 'transparent'],
  '--color-background-info': [undefined, '#ddf4ff', '#0c2d6b'],
  '--color-background-danger': [undefined, '#ffebe9', '#490202'],
  '--color-background-success': [undefined, '#dafbe1', '#033a16'],
  '--color-background-warning': [undefined, '#fff8c5', '#3b2300'],
  '--color-background-disabled': [undefined, '#eaeef2', '#21262d'],
  '--color-text-primary': ['--mcp-color-text', '#1f2328', '#e6edf3'],
  '--color-text-secondary': ['--mcp-color-muted-text', '#59636e', '#9198a1'],
  '--color-text-tertiary': [undefined, '#6e7781', '#7d8590'],
  '--color-text-inverse': [undefined, '#ffffff', '#0d1117'],
  '--color-text-ghost': [undefined, '#8c959f', '#6e7681'],
  '--color-text-info': ['--mcp-color-accent', '#0969da', '#4493f8'],
  '--color-text-danger': ['--mcp-color-danger', '#d1242f', '#f85149'],
  '--color-text-success': [undefined, '#1a7f37', '#3fb950'],
  '--color-text-warning': [undefined, '#9a6700', '#d29922'],
  '--color-text-disabled': [undefined, '#8c959f', '#6e7681'],
  '--color-border-primary': ['--mcp-color-border', '#8c959f', '#6e7681'],
  '--color-border-secondary': [undefined, '#d1d9e0', '#3d444d'],
  '--color-border-tertiary': [undefined, '#eaeef2', '#21262d'],
  '--color-border-inverse': [undefined, '#24292f', '#f0f6fc'],
  '--color-border-ghost': [undefined, 'transparent', 'transparent'],
  '--color-border-info': [undefined, '#0969da', '#4493f8'],
  '--color-border-danger': [undefined, '#d1242f', '#f85149'],
  '--color-border-success': [undefined, '#1a7f37', '#3fb950'],
  '--color-border-warning': [undefined, '#9a6700', '#d29922'],
  '--color-border-disabled': [undefined, '#d1d9e0', '#3d444d'],
  '--color-ring-primary': ['--mcp-color-accent', '#0969da', '#4493f8'],
  '--color-ring-secondary': [undefined, '#8c959f', '#6e7681'],
  '--color-ring-inverse': [undefined, '#ffffff', '#0d1117'],
  '--color-ring-info': [undefined, '#0969da', '#4493f8'],
  '--color-ring-danger': [undefined, '#d1242f', '#f85149'],
  '--color-ring-success': [undefined, '#1a7f37', '#3fb950'],
  '--color-ring-warning': [undefined, '#9a6700', '#d29922'],
};

/** Standard variables that do not depend on the theme. */
const CONSTANTS: Record<string, string> = {
  '--font-mono': 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  '--font-weight-normal': '400',
  '--font-weight-medium': '500',
  '--font-weight-semibold': '600',
  '--font-weight-bold': '700',
  '--font-text-xs-size': '0.75rem',
  '--font-text-xs-line-height': '1.4',
  '--font-text-sm-size': '0.875rem',
  '--font-text-sm-line-height': '1.45',
  '--font-text-md-size': '1rem',
  '--font-text-md-line-height': '1.5',
  '--font-text-lg-size': '1.125rem',
  '--font-text-lg-line-height': '1.5',
  '--font-heading-xs-size': '0.875rem',
  '--font-heading-xs-line-height': '1.4',
  '--font-heading-sm-size': '1rem',
  '--font-heading-sm-line-height': '1.4',
  '--font-heading-md-size': '1.125rem',
  '--font-heading-md-line-height': '1.35',
  '--font-heading-lg-size': '1.25rem',
  '--font-heading-lg-line-height': '1.3',
  '--font-heading-xl-size': '1.5rem',
  '--font-heading-xl-line-height': '1.25',
  '--font-heading-2xl-size': '1.875rem',
  '--font-heading-2xl-line-height': '1.2',
  '--font-heading-3xl-size': '2.25rem',
  '--font-heading-3xl-line-height': '1.15',
  '--border-radius-xs': '2px',
  '--border-radius-sm': '4px',
  '--border-radius-md': '6px',
  '--border-radius-lg': '8px',
  '--border-radius-xl': '12px',
  '--border-radius-full': '9999px',
  '--border-width-regular': '1px',
  '--shadow-hairline': '0 0 0 1px rgb(0 0 0 / 0.08)',
  '--shadow-sm': '0 1px 2px rgb(0 0 0 / 0.12)',
  '--shadow-md': '0 4px 12px rgb(0 0 0 / 0.16)',
  '--shadow-lg': '0 8px 24px rgb(0 0 0 / 0.24)',
};

/** Every standard variable name the host sends. */
export const STYLE_VARIABLES: readonly string[] = [...Object.keys(COLORS), '--font-sans', ...Object.keys(CONSTANTS)];

/**
 * The `styles` of the host context for `theme`: the colours as `host` draws
 * them in that scheme (its `--mcp-color-*` when set, else the defaults), its
 * font family, and `fonts` as `css.fonts` (`@font-face`/`@import` rules).
 */
export function hostStyles(host: Element, theme: 'light' | 'dark', fonts = ''): { variables: Record<string, string>; css: { fonts: string } } {
  const root = host.shadowRoot ?? host;
  const probe = document.createElement('span');
  probe.style.cssText = `position:absolute;visibility:hidden;color-scheme:${theme}`;
  root.appendChild(probe);
  const variables: Record<string, string> = {};
  try {
    const computed = getComputedStyle(probe);
    for (const [name, [kit, light, dark]] of Object.entries(COLORS)) {
      const fallback = `light-dark(${light}, ${dark})`;
      probe.style.color = kit ? `var(${kit}, ${fallback})` : fallback;
      // A kit variable set to something that is not a colour leaves the default.
      if (!probe.style.color) probe.style.color = fallback;
      variables[name] = computed.color;
    }
    variables['--font-sans'] = getComputedStyle(host).fontFamily;
  } finally {
    probe.remove();
  }
  return { variables: { ...variables, ...CONSTANTS }, css: { fonts } };
}
