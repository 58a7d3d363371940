import 'antd/dist/reset.css';
// The shop's own controls first, so the page styles (styles.css) can place and size them.
import './components/ui/ui.css';
import './styles.css';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProvider } from './app/provider';
import { AppRouter } from './app/router';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');

// The first render as a transition: React renders it in slices of a few milliseconds, yielding to
// the browser between them, instead of one long task that a slow phone cannot answer input during.
startTransition(() => {
  createRoot(root).render(
    <StrictMode>
      <AppProvider>
        <AppRouter />
      </AppProvider>
    </StrictMode>,
  );
});
