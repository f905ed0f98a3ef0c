/**
 * The date pickers offer only the days the API takes (1000-01-01 to 9999-12-31, API.md): at
 * either end, the way further is closed and the days beyond are disabled, on every level.
 */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FormProvider, useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { ThemeProvider } from '../src/app/providers';
import { DateFormField } from '../src/components/DateFormField';
import { RangeField } from '../src/features/dashboard/PeriodFields';

function DateForm(props: { date: string }) {
  const form = useForm({ defaultValues: { date: props.date } });
  return (
    <FormProvider {...form}>
      <DateFormField name="date" label="Date" />
    </FormProvider>
  );
}

/** Opens the picker behind the button named `label`; answers its dropdown. */
async function open(label: string) {
  await userEvent.click(screen.getByRole('button', { name: label }));
  return screen.getByRole('dialog');
}

const control = (dropdown: HTMLElement, direction: 'previous' | 'next') =>
  dropdown.querySelector<HTMLButtonElement>(`button[data-direction="${direction}"]`)!;

/** The buttons of days, months or years whose label names a year outside 1000..9999. */
function outside(dropdown: HTMLElement) {
  return within(dropdown)
    .getAllByRole('button')
    .filter((b) => {
      const years = (b.getAttribute('aria-label') ?? b.textContent ?? '').match(/\d{3,}/g) ?? [];
      return years.some((y) => Number(y) < 1000 || Number(y) > 9999);
    });
}

/** At the range's `end`: no way further, nothing beyond enabled, at the month, year and decade level. */
async function expectClosed(dropdown: HTMLElement, end: 'previous' | 'next') {
  let beyond = 0;
  for (let level = 0; level < 3; level += 1) {
    expect(control(dropdown, end)).toBeDisabled();
    for (const button of outside(dropdown)) expect(button, button.outerHTML).toBeDisabled();
    beyond += outside(dropdown).length;
    if (level < 2) {
      await userEvent.click(
        dropdown.querySelector<HTMLButtonElement>('[class*=calendarHeaderLevel]')!,
      );
    }
  }
  // The grids show days or years past the end: the check above was not empty.
  expect(beyond).toBeGreaterThan(0);
}

describe('the date pickers', () => {
  for (const [date, day, end] of [
    ['9999-12-31', '31 December 9999', 'next'],
    ['1000-01-01', '1 January 1000', 'previous'],
  ] as const) {
    it(`of a form: at ${date}, nothing further`, async () => {
      render(
        <ThemeProvider env="test">
          <DateForm date={date} />
        </ThemeProvider>,
      );
      const dropdown = await open('Date');
      expect(within(dropdown).getByRole('button', { name: day })).toBeEnabled();
      await expectClosed(dropdown, end);
    });

    it(`of a period: at ${date}, nothing further`, async () => {
      render(
        <ThemeProvider env="test">
          <RangeField from={date} to={date} onChange={() => undefined} />
        </ThemeProvider>,
      );
      await expectClosed(await open('Created between'), end);
    });
  }
});
