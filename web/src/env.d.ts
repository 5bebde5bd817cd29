/** esbuild bundles imported CSS into the sibling stylesheet. */
declare module '*.css';
