/**
 * The shared table on its own: sorting kept in the URL, selection with the screen's bulk actions,
 * the density remembered, the range in the footer, the empty states, and cards at a phone width.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button } from '@mantine/core';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { ThemeProvider } from '../src/app/providers';
import { DataTable, DENSITY_KEY, type Column } from '../src/components/DataTable';
import { PHONE_QUERY } from '../src/lib/phone';
import { RowActions } from '../src/components/RowActions';
import type { Selection } from '../src/lib/bulk';
import { useListParams } from '../src/lib/list';

type Fruit = { id: number; name: string; stock: number };

const columns: Column<Fruit>[] = [
  { key: 'name', header: 'Name', sort: 'name', card: 'title', render: (f) => f.name },
  { key: 'stock', header: 'Stock', sort: 'stock', align: 'right', render: (f) => f.stock },
  { key: 'id', header: 'Code', card: 'hidden', render: (f) => `F-${f.id}` },
];

const FRUITS: Fruit[] = [
  { id: 1, name: 'Apple', stock: 3 },
  { id: 2, name: 'Banana', stock: 12 },
  { id: 3, name: 'Cherry', stock: 0 },
];

const idle = { isPending: false, isFetching: false, isError: false, error: null, refetch: vi.fn() };

function Fruits(props: {
  rows?: Fruit[];
  total?: number;
  onBulk?: (selection: Selection<Fruit>) => void;
  onCreate?: () => void;
  query?: typeof idle;
  /** The list call behind the table, so "Select all N matching" is offered. */
  matching?: boolean;
  /** The server estimated the total. */
  totalEstimated?: boolean;
}) {
  const params = useListParams(['kind'], ['name', 'stock']);
  const rows = props.rows ?? FRUITS;
  return (
    <DataTable
      label="Fruits"
      columns={columns}
      rows={rows}
      total={props.total ?? rows.length}
      rowKey={(f) => f.id}
      rowName={(f) => f.name}
      params={{
        ...params,
        totalEstimated: props.totalEstimated,
        ...(props.matching ? { matching: { path: '/fruits', query: {} } } : {}),
      }}
      query={props.query ?? idle}
      empty={{
        title: 'No fruit yet',
        description: 'Fruit is what the shop sells.',
        action: props.onCreate
          ? { label: 'Add the first fruit', onClick: props.onCreate }
          : undefined,
      }}
      actions={(f) => <RowActions label={f.name} actions={[{ label: 'Eat', onClick: () => {} }]} />}
      bulkActions={
        props.onBulk
          ? (selected, clear) => (
              <Button
                onClick={() => {
                  props.onBulk!(selected);
                  clear();
                }}
              >
                Delete selected
              </Button>
            )
          : undefined
      }
    />
  );
}

function renderTable(path: string, props: Parameters<typeof Fruits>[0] = {}) {
  const router = createMemoryRouter([{ path: '/fruits', element: <Fruits {...props} /> }], {
    initialEntries: [path],
  });
  render(
    <ThemeProvider env="test">
      <RouterProvider router={router} />
    </ThemeProvider>,
  );
  return router;
}

/** Makes the window match the phone query, as a narrow screen would. */
function atPhoneWidth() {
  const original = window.matchMedia;
  window.matchMedia = (query: string) => ({
    ...original(query),
    matches: query === PHONE_QUERY,
  });
  return () => {
    window.matchMedia = original;
  };
}

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
});

describe('DataTable', () => {
  it('sorts by a column heading: ascending, descending, then the default order, in the URL', async () => {
    const router = renderTable('/fruits?page=3');
    const name = screen.getByRole('columnheader', { name: /Name/ });
    expect(name).toHaveAttribute('aria-sort', 'none');
    // A column the area cannot sort by is a plain heading.
    expect(
      within(screen.getByRole('columnheader', { name: 'Code' })).queryByRole('button'),
    ).toBeNull();

    await userEvent.click(within(name).getByRole('button', { name: /Name/ }));
    // A new order starts again at page 1.
    expect(router.state.location.search).toBe('?sort=name');
    expect(screen.getByRole('columnheader', { name: /Name/ })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );

    await userEvent.click(screen.getByRole('button', { name: /Name/ }));
    expect(router.state.location.search).toBe('?sort=-name');
    expect(screen.getByRole('columnheader', { name: /Name/ })).toHaveAttribute(
      'aria-sort',
      'descending',
    );

    await userEvent.click(screen.getByRole('button', { name: /Stock/ }));
    expect(router.state.location.search).toBe('?sort=stock');
    expect(screen.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'none');

    await userEvent.click(screen.getByRole('button', { name: /Stock/ }));
    await userEvent.click(screen.getByRole('button', { name: /Stock/ }));
    expect(router.state.location.search).toBe('');
  });

  it('ignores a sort the area does not allow (an old link) instead of asking the server for it', () => {
    renderTable('/fruits?sort=price');
    expect(screen.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'none');
    expect(screen.getByRole('columnheader', { name: /Stock/ })).toHaveAttribute(
      'aria-sort',
      'none',
    );
  });

  it('selects rows and hands them to the bulk action, which clears the selection', async () => {
    const onBulk = vi.fn();
    renderTable('/fruits', { onBulk });
    expect(screen.queryByRole('region', { name: 'Selected rows' })).toBeNull();

    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Apple' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Cherry' }));
    const bar = screen.getByRole('region', { name: 'Selected rows' });
    expect(within(bar).getByText('2 selected')).toBeInTheDocument();
    const all = screen.getByRole('checkbox', { name: 'Select every row on this page' });
    expect(all).toHaveAttribute('data-indeterminate', 'true');

    await userEvent.click(within(bar).getByRole('button', { name: 'Delete selected' }));
    expect(onBulk).toHaveBeenCalledWith({ kind: 'rows', rows: [FRUITS[0], FRUITS[2]], count: 2 });
    expect(screen.queryByRole('region', { name: 'Selected rows' })).toBeNull();
    expect(screen.getByRole('checkbox', { name: 'Select Apple' })).not.toBeChecked();
  });

  it('selects a whole page at once, and clears the selection on request', async () => {
    renderTable('/fruits', { onBulk: vi.fn() });
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select every row on this page' }));
    for (const f of FRUITS) {
      expect(screen.getByRole('checkbox', { name: `Select ${f.name}` })).toBeChecked();
    }
    expect(screen.getByText('3 selected')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(screen.queryByText('3 selected')).toBeNull();
    expect(screen.getByRole('checkbox', { name: 'Select Banana' })).not.toBeChecked();
  });

  it('offers every matching row once the whole page is picked, up to a limit', async () => {
    const onBulk = vi.fn();
    renderTable('/fruits', { onBulk, matching: true, total: 50 });
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Apple' }));
    expect(screen.queryByRole('button', { name: /Select all/ })).toBeNull();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select every row on this page' }));
    await userEvent.click(screen.getByRole('button', { name: 'Select all 50 matching' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete selected' }));
    expect(onBulk).toHaveBeenCalledWith({
      kind: 'matching',
      source: { path: '/fruits', query: {} },
      count: 50,
    });
    cleanup();

    renderTable('/fruits', { onBulk, matching: true, total: 25_000 });
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select every row on this page' }));
    expect(screen.queryByRole('button', { name: /Select all/ })).toBeNull();
    expect(screen.getByText(/25,000 match: narrow the search/)).toBeInTheDocument();
  });

  it('has no checkboxes where the screen offers no bulk action', () => {
    renderTable('/fruits');
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
  });

  it('says which rows are shown out of how many, the same way on every page', () => {
    renderTable('/fruits?page=2', { total: 1234 });
    expect(screen.getByTestId('list-range')).toHaveTextContent('21–40 of 1,234');
  });

  it('says “about” when the server estimated the total, and offers no “all matching” then', async () => {
    renderTable('/fruits?page=3', {
      total: 99_000,
      totalEstimated: true,
      matching: true,
      onBulk: vi.fn(),
    });
    expect(screen.getByTestId('list-range')).toHaveTextContent('41–60 of about 99,000');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select every row on this page' }));
    expect(screen.getByText(/About 99,000 match: narrow the search/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Select all .* matching/ })).toBeNull();
  });

  it('remembers the chosen density in this browser', async () => {
    renderTable('/fruits');
    const spacing = () =>
      screen
        .getByRole('table', { name: 'Fruits' })
        .style.getPropertyValue('--table-vertical-spacing');
    const comfortable = spacing();
    await userEvent.click(screen.getByRole('radio', { name: 'Compact' }));
    const compact = spacing();
    expect(compact).not.toBe(comfortable);
    expect(localStorage.getItem(DENSITY_KEY)).toBe('"compact"');

    // Another visit in the same browser starts compact.
    cleanup();
    renderTable('/fruits');
    expect(screen.getByRole('radio', { name: 'Compact' })).toBeChecked();
    expect(spacing()).toBe(compact);
  });

  it('explains an empty area and offers to create the first row', async () => {
    const onCreate = vi.fn();
    renderTable('/fruits', { rows: [], onCreate });
    expect(screen.getByText('No fruit yet')).toBeInTheDocument();
    expect(screen.getByText('Fruit is what the shop sells.')).toBeInTheDocument();
    expect(screen.getByTestId('list-range')).toHaveTextContent('0 of 0');
    await userEvent.click(screen.getByRole('button', { name: 'Add the first fruit' }));
    expect(onCreate).toHaveBeenCalledOnce();
  });

  it('offers to clear the search and filters when nothing matches them', async () => {
    const router = renderTable('/fruits?q=kiwi&kind=tropical&sort=name', { rows: [] });
    expect(screen.getByText('Nothing matches')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add the first fruit' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Clear search and filters' }));
    expect(router.state.location.search).toBe('?sort=name');
  });

  it('shows each row as a card on a phone, with its actions and selection reachable', async () => {
    restore = atPhoneWidth();
    const onBulk = vi.fn();
    const router = renderTable('/fruits', { onBulk });
    const cards = await screen.findAllByRole('listitem');
    expect(cards).toHaveLength(3);
    expect(screen.queryByRole('table')).toBeNull();

    const banana = cards[1]!;
    expect(within(banana).getByText('Banana')).toBeInTheDocument();
    expect(within(banana).getByText('Stock')).toBeInTheDocument();
    expect(within(banana).getByText('12')).toBeInTheDocument();
    // A column marked hidden is left out of the card.
    expect(within(banana).queryByText('F-2')).toBeNull();
    expect(within(banana).getByRole('button', { name: 'Actions for Banana' })).toBeVisible();

    await userEvent.click(within(banana).getByRole('checkbox', { name: 'Select Banana' }));
    expect(screen.getByText('1 selected')).toBeInTheDocument();

    // No headings to press: the order is a select above the cards.
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), '-stock');
    expect(router.state.location.search).toBe('?sort=-stock');
    // Density is a table matter: cards have none.
    expect(screen.queryByRole('radio', { name: 'Compact' })).toBeNull();
  });

  it("opens a row's menu on a click and gives focus back to its button when it closes", async () => {
    renderTable('/fruits');
    const button = await screen.findByRole('button', { name: 'Actions for Banana' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    // The menu is mounted on the first click (a plain button until then): it opens at once.
    await userEvent.click(button);
    expect(await screen.findByRole('menuitem', { name: 'Eat' })).toBeVisible();
    await userEvent.keyboard('{Escape}');
    await vi.waitFor(() => expect(screen.queryByRole('menuitem', { name: 'Eat' })).toBeNull());
    await vi.waitFor(() =>
      expect(screen.getByRole('button', { name: 'Actions for Banana' })).toHaveFocus(),
    );
    // And again, now that it is mounted.
    await userEvent.click(screen.getByRole('button', { name: 'Actions for Banana' }));
    expect(await screen.findByRole('menuitem', { name: 'Eat' })).toBeVisible();
  });

  it('keeps its frame while the first rows load: headings, a page of row places, the footer', () => {
    const loading = { ...idle, isPending: true, isFetching: true };
    renderTable('/fruits?limit=10', { rows: [], total: 0, query: loading, onBulk: vi.fn() });
    expect(screen.getByRole('columnheader', { name: 'Name' })).toBeInTheDocument();
    expect(screen.getAllByTestId('loading-row')).toHaveLength(10);
    expect(screen.getByText('Rows per page')).toBeInTheDocument();
    expect(screen.getByTestId('list-range')).toHaveTextContent('0 of 0');
    // No empty state while the rows are on their way.
    expect(screen.queryByText('No fruit yet')).toBeNull();
  });

  it('on a phone, has the select-all and sort bar while the first rows load', () => {
    restore = atPhoneWidth();
    const loading = { ...idle, isPending: true, isFetching: true };
    renderTable('/fruits', { rows: [], total: 0, query: loading, onBulk: vi.fn() });
    // Three cards fill a phone's screen; the page's other places are out of view.
    expect(screen.getAllByTestId('loading-row')).toHaveLength(3);
    expect(screen.getByRole('checkbox', { name: 'Select all on this page' })).toBeDisabled();
    expect(screen.getByRole('combobox', { name: 'Sort by' })).toBeInTheDocument();
  });
});
