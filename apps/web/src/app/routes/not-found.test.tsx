import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppProvider } from '../provider';
import { routes } from '../router';

describe('not-found page', () => {
  it('names the missing path and offers a way back', async () => {
    const router = createMemoryRouter(routes, { initialEntries: ['/definitely/missing'] });
    render(
      <AppProvider>
        <RouterProvider router={router} />
      </AppProvider>,
    );
    expect(await screen.findByRole('heading', { name: 'We can’t find that page' })).toBeInTheDocument();
    expect(screen.getByText('/definitely/missing')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the start page' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
  });
});
