// ESLint flat config: typescript-eslint's recommended rules plus the kit's own
// guard rails (server content never reaches an HTML parser; src/ has no DOM or Lit).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test-results/**', 'playwright-report/**', '.cache/**', 'bench/results/**', 'api/**', 'docs/.vitepress/cache/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-constant-condition': ['error', { checkLoops: false }],
      'no-restricted-properties': [
        'error',
        { property: 'innerHTML', message: 'Server content is untrusted: render it as text.' },
        { property: 'outerHTML', message: 'Server content is untrusted: render it as text.' },
        { property: 'insertAdjacentHTML', message: 'Server content is untrusted: render it as text.' },
      ],
      'no-restricted-imports': ['error', { paths: [{ name: 'lit/directives/unsafe-html.js', message: 'Server content is untrusted: render it as text.' }] }],
    },
  },
  {
    // Plain Node scripts.
    files: ['**/*.{js,mjs}'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', URL: 'readonly', Buffer: 'readonly' },
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['lit', 'lit/*', '@lit/*', '**/components/**'], message: 'The core (src/) must not depend on Lit or the elements.' }] },
      ],
    },
  },
);
