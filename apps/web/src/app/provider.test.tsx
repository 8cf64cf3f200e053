import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppProvider } from './provider';

describe('AppProvider', () => {
  it('shows a notification although its container loads only with the first one', async () => {
    render(
      <AppProvider>
        <Button onClick={() => notifications.show({ title: 'Saved', message: 'Your changes are saved.' })}>Save</Button>
      </AppProvider>,
    );
    expect(screen.queryByText('Your changes are saved.')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Your changes are saved.')).toBeInTheDocument();
    expect(screen.getByText('Saved')).toBeInTheDocument();
  });
});
