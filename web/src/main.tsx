import { i18nReady } from './i18n/index.js';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.js';
import { createQueryClient } from './app/queryClient.js';
import { createAppRouter } from './app/router.js';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const mount = root;
// A Spanish page waits for its texts (a separate file) rather than flashing English.
void i18nReady.finally(() => {
  createRoot(mount).render(
    <StrictMode>
      <App router={createAppRouter()} queryClient={createQueryClient()} />
    </StrictMode>,
  );
});
