import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

// In dev the API and the live socket come from the gateway on :3000; in one-process mode
// the gateway serves web/dist itself, so the built app only ever talks to its own origin.
const gateway = process.env.TV_SHOP_GATEWAY ?? 'http://localhost:3000';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: {
    proxy: {
      '/api': { target: gateway, changeOrigin: true },
      '/socket.io': { target: gateway, ws: true, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      // The contracts package also holds the server's zod schemas; the browser only takes its
      // constants and types, so its modules must not drag zod in for their side effects.
      treeshake: { moduleSideEffects: (id: string) => !id.includes('/packages/contracts/') },
    },
  },
});
