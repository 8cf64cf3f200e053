import './app/payer-styles.css';
import './app/global.css';
import { mountApp } from './app/mount';
import { PayerApp } from './app/payer-app';

/**
 * The payer's pages' own entry (`pay.html`, ADR 047): the pay page, the QR code's page and the
 * receipt, without the portal's router, session, menus or its other pages, and with only the
 * styles of the components they draw (`app/payer-styles.css`).
 */
mountApp(<PayerApp />);
