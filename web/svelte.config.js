// Svelte's settings for vite-plugin-svelte: the defaults (runes mode by use).
export default {};
