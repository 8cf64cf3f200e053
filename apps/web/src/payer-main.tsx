import '@mantine/core/styles.css';
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { PayerApp } from './app/payer-app';

/**
 * The payer's pages' own entry (`pay.html`, ADR 047): the pay page, the QR code's page and the
 * receipt, without the portal's router, session, menus or its other pages.
 */
const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
createRoot(root).render(
  <StrictMode>
    <PayerApp />
  </StrictMode>,
);
