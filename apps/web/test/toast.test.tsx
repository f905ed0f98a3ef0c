import { describe, expect, it } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Providers } from '../src/app/app-providers';
import { DEFAULT_TOAST_MS, toast } from '../src/lib/toast';

describe('toasts', () => {
  it('show a capitalised title and the message, and can be closed by hand', async () => {
    render(<Providers>{null}</Providers>);
    act(() => toast('error', 'Name taken', 60_000));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error');
    expect(alert).toHaveTextContent('Name taken');
    await userEvent.click(screen.getByRole('button', { name: 'Close notification' }));
    await waitFor(() => expect(screen.queryByText('Name taken')).not.toBeInTheDocument());
  });

  it('vanish by themselves after 2000 ms by default', async () => {
    expect(DEFAULT_TOAST_MS).toBe(2000);
    render(<Providers>{null}</Providers>);
    act(() => toast('success', 'Saved it'));
    expect(await screen.findByText('Success')).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 1500));
    expect(screen.getByText('Saved it')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Saved it')).not.toBeInTheDocument(), {
      timeout: 2500,
    });
  });

  it('a success takes away the errors still shown: they are stale', async () => {
    render(<Providers>{null}</Providers>);
    act(() => toast('error', 'Could not save the poster'));
    expect(await screen.findByText('Could not save the poster')).toBeInTheDocument();
    act(() => toast('success', 'Poster saved'));
    expect(await screen.findByText('Poster saved')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByText('Could not save the poster')).not.toBeInTheDocument(),
    );
  });
});
