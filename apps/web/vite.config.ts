import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  // Spread the defaults so 'source' (workspace TS) is added without losing development|production exports.
  resolve: { conditions: [...defaultClientConditions, 'source'] },
  server: { port: 5173, proxy: { '/api': 'http://127.0.0.1:3000' } },
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Every page loads the entry's static imports, so two chunks (libraries, ours) gzip better than dozens and cache apart.
          groups: [
            { name: 'vendor', test: /[\\/]node_modules[\\/]/, tags: ['$initial'] },
            { name: 'shell', tags: ['$initial'] },
          ],
        },
      },
    },
  },
});
