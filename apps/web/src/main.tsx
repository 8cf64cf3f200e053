import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import './app/global.css';
// `mount` (React DOM) before the app: in that order the shell gzips about 1 kB smaller, and the
// sign-in page's budget is 150 kB (bench/bundle.mjs).
import { mountApp } from './app/mount';
import { App } from './app/app';

mountApp(<App />);
