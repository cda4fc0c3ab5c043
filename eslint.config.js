import js from '@eslint/js'
import globals from 'globals'
import reactHooks from 'eslint-plugin-react-hooks'
import reactRefresh from 'eslint-plugin-react-refresh'
import tseslint from 'typescript-eslint'
import { defineConfig, globalIgnores } from 'eslint/config'
import { importX } from 'eslint-plugin-import-x'
import { readdirSync } from 'node:fs'

// The engine must run unchanged in the browser, in Node and in workers: no UI
// framework, no DOM and no network stack may leak into it.
const coreForbiddenImports = {
  patterns: [
    {
      group: ['react', 'react-dom', 'react/*', 'react-dom/*', '@xyflow/*', 'zustand', 'zustand/*', '@tanstack/*'],
      message: 'src/core is framework-free: no React or UI state here.',
    },
    {
      group: ['openai', 'openai/*', 'node:http', 'node:https', 'node:net', 'http', 'https', 'net', 'undici'],
      message: 'src/core makes no network calls: put network code in an adapter and pass it in as a port.',
    },
    {
      group: ['**/app/**', '**/features/**', '**/adapters/**', '**/protocol/**', '**/servers/**', '**/cli/**', '**/stores/**'],
      message: 'src/core may not import from outer layers.',
    },
  ],
}
// The app's rooms (Bulletproof React's rule): a feature is composed by src/app and never imports another
// feature; stores, queries, shared components and helpers never import a feature. What two features share
// moves down into src/core, src/lib, src/components or src/queries. Paths are resolved, so a relative
// import cannot slip past the rule the way a string pattern would let it.
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
const roomZones = [
  ...features.map((name) => ({
    target: `./src/features/${name}`,
    from: './src/features',
    except: [`./${name}`],
    message: 'features never import each other: move what both need into src/core, src/lib, src/components or src/queries.',
  })),
  ...['stores', 'queries', 'components', 'lib', 'adapters', 'protocol', 'servers'].map((room) => ({
    target: `./src/${room}`,
    from: ['./src/features', './src/app'],
    message: `src/${room} is shared: it never imports a feature or the app shell.`,
  })),
]

const domGlobals = [
  'window',
  'document',
  'navigator',
  'localStorage',
  'sessionStorage',
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'indexedDB',
  'location',
  'HTMLElement',
]

export default defineConfig([
  globalIgnores(['.venv', '.venv-deploy', 'python', 'dist', 'dist-cli', 'playwright-report', 'test-results', 'reports', 'node_modules']),
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, tseslint.configs.recommended, reactHooks.configs.flat.recommended, reactRefresh.configs.vite],
    languageOptions: { ecmaVersion: 2023, globals: { ...globals.browser, ...globals.node } },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs'] })] },
    rules: { 'import-x/no-restricted-paths': ['error', { zones: roomZones }] },
  },
  {
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', coreForbiddenImports],
      'no-restricted-globals': [
        'error',
        ...domGlobals.map((name) => ({ name, message: 'src/core runs without a DOM or network: receive this capability as a parameter.' })),
      ],
    },
  },
  {
    files: ['**/*.{js,mjs}'],
    extends: [js.configs.recommended],
    languageOptions: { ecmaVersion: 2023, globals: { ...globals.browser, ...globals.node } },
  },
])
