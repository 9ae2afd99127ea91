import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The dashboard is served by Snip itself under /app (src/http/dashboard.ts); scripts/build.mjs builds it into dist/app
// with the server, so `npm ci && npm start` needs nothing else. `npx vite --config web/vite.config.ts` serves it for
// development against a Snip on :3000.
export default defineConfig({
  root: import.meta.dirname,
  base: '/app/',
  plugins: [react()],
  build: { outDir: '../dist/app', emptyOutDir: true, chunkSizeWarningLimit: 2000, reportCompressedSize: false },
  server: { proxy: { '/api': 'http://localhost:3000' } },
});
