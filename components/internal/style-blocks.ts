/**
 * Style blocks that the eager elements drawn in system colours used to copy,
 * written once: the button and the focus ring of `<mcp-connection>` and of the
 * shell of `<mcp-elicitation-dialog>`. Each is a fragment (the declarations of
 * a rule) that an element's stylesheet interpolates where its copy stood
 * (`${focusRing}`), so the stylesheet an element adopts has the same rules in
 * the same order as before. The declarations are indented as inside a rule:
 * the text ships as written, and written so it compresses with the like text
 * of the other styles in the page's bundle.
 *
 * All of it is in the page's eager bundle, where its blocks are used. A block
 * used only by a part loaded on demand does not belong here (it would be
 * downloaded by every page), nor is one of these imported by such a part: it
 * would become an export of the page's entry chunk, which costs the eager
 * bundle more than the part saves. Nor is every short copy worth a block:
 * gzip already stores a repeated rule for a few bytes, and a fragment costs
 * more than that (measured: sharing the three-line `hidden` rule of two eager
 * elements made the page's eager files 8 B larger).
 *
 * The exception is {@link plainHost} (and its {@link plainText}): every
 * element uses it, those loaded on demand and the inspector's too.
 *
 * @module
 */
import { css } from 'lit';

/** Declarations of the focus ring in system colours: the kit's focus colour, else the system's highlight. */
export const focusRing = css`
    outline: 2px solid var(--mcp-color-focus, Highlight);
    outline-offset: 2px;
`;

/** Declarations of a button in system colours (each element sets its own padding). */
export const systemButton = css`
    font: inherit;
    border-radius: var(--mcp-radius-small, 0.375rem);
    border: 1px solid var(--mcp-color-border, color-mix(in srgb, currentColor 35%, transparent));
    background: var(--mcp-color-button, ButtonFace);
    color: var(--mcp-color-button-text, ButtonText);
    cursor: pointer;
`;

/**
 * Declarations that keep the text styles a host page lets its descendants
 * inherit, and that are not theming, out of an element: a centred `#root`
 * (the Vite React template), an uppercase or letter-spaced container, a
 * `nowrap` or an indent, a `text-align-last`, a text shadow, a vertical
 * `writing-mode`, a transparent `-webkit-text-fill-color` would otherwise
 * reach every label, input and result in the shadow tree. A page rule that
 * selects the element itself (`.app *`) styles its host as it would any
 * element, and wins over `:host`: that one is the page's choice. Theming still comes through: the `--mcp-*` properties,
 * the page's font (each element's `font: var(--mcp-font, inherit)`, which
 * also carries its style and weight) and its colour scheme. `direction`
 * follows `dir` (see {@link plainHost}), not a stylesheet's `direction`.
 */
export const plainText = css`
    text-align: start;
    text-indent: 0;
    text-transform: none;
    letter-spacing: normal;
    word-spacing: normal;
    white-space: normal;
    line-height: 1.4;
    direction: ltr;
    text-align-last: auto;
    text-shadow: none;
    word-break: normal;
    overflow-wrap: normal;
    hyphens: manual;
    writing-mode: horizontal-tb;
    -webkit-text-fill-color: currentcolor;
`;

/**
 * {@link plainText} for an element's `:host`, put in each element's styles
 * right after `schemeStyles` (before its own, which may override it). Used by
 * every element, those loaded on demand too: unlike the blocks above, each
 * copy here would be the same text in every element's styles. Right-to-left
 * is what `dir` on the element or an ancestor says (`:dir()`).
 */
export const plainHost = css`
  :host {
    ${plainText}
  }
  :host(:dir(rtl)) {
    direction: rtl;
  }
`;
