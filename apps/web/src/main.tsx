import './styles/first-screen';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { ThemeProvider } from './app/providers';
import { createRouter } from './app/router';
import { defined } from './lib/defined';

const router = createRouter();

createRoot(defined(document.getElementById('root'))).render(
  <StrictMode>
    <ThemeProvider>
      <RouterProvider router={router} />
    </ThemeProvider>
  </StrictMode>,
);
