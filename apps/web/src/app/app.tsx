import { RouterProvider } from 'react-router';
import { useState } from 'react';
import { AppProvider } from './provider';
import { createRouter } from './router';

export function App() {
  const [router] = useState(createRouter);
  return (
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
