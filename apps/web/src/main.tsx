/** Entry: error capture, then React; errors caught by React boundaries go to the same log. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { i18nReady } from './i18n';
import './layout/global.css';
import { installErrorCapture, logError } from './layout/errorLog';

installErrorCapture();
// Mounting before the first language's texts arrive would flash raw keys.
await i18nReady;

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container, {
  onCaughtError: (error, info) => {
    console.error(error);
    logError('react', error, info.componentStack);
  },
  onUncaughtError: (error, info) => {
    console.error(error);
    logError('react', error, info.componentStack);
  },
}).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
