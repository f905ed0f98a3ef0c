import { signIn, test, now, unique } from './fixtures.ts';
const DAY_MS = 86_400_000;
const day = (n: number) => new Date(Date.now() + n * DAY_MS).toISOString().slice(0, 10);
test('shots', async ({ page, sql }) => {
  test.setTimeout(120_000);
  const at = now();
  const apps: number[] = [];
  for (const name of ['Festival Posters', 'Daily Wishes', 'Business Cards']) {
    apps.push(Number((await sql.one<{ id: number }>('insert into master_apps (name, created_at, updated_at) values (?, ?, ?) returning id', [name, at, at])).id));
  }
  const cats: number[] = [];
  for (const name of ['Diwali', 'Good Morning', 'Birthday', 'Independence Day', 'Quotes']) {
    cats.push(Number((await sql.one<{ id: number }>("insert into categories (name, download_count, status, created_at, updated_at) values (?, 0, 'ACTIVE', ?, ?) returning id", [name, at, at])).id));
  }
  const days: number[] = [];
  const names = ['Children\u2019s Day', 'Christmas', 'New Year', 'Republic Day', 'Holi', 'Guru Nanak Jayanti', 'Constitution Day'];
  const dates = [day(3), day(31), day(38), day(63), day(100), day(5), day(2)];
  for (const [i, name] of names.entries()) {
    const d = dates[i]!;
    days.push(Number((await sql.one<{ id: number }>("insert into special_days (name, month, day, year, status, created_at, updated_at) values (?, ?, ?, null, 'ACTIVE', ?, ?) returning id", [name, Number(d.slice(5, 7)), Number(d.slice(8, 10)), at, at])).id));
  }
  const [admin] = await sql.all<{ id: number }>("select id from accounts where role = 'SUPER_ADMIN'");
  for (let i = 0; i < 120; i++) {
    const created = new Date(Date.now() - Math.floor(Math.random() * 60) * DAY_MS).toISOString();
    const pid = Number((await sql.one<{ id: number }>(`insert into posters (master_app_id, category_id, special_day_id, account_id, top_def_num, self_def_num, bottom_def_num, poster, download_count, status, position, created_at, updated_at) values (?, ?, ?, ?, 1, 1, 1, ?, 0, ?, 'LEFT', ?, ?) returning id`, [apps[i % 3], cats[i % 5], i % 4 === 0 ? null : days[i % 5], admin!.id, `posters/zz/${unique('p')}.webp`, i % 6 === 0 ? 'DEACTIVE' : 'ACTIVE', created, created])).id);
    for (let d = 1; d <= 40; d += 1 + (i % 4)) {
      await sql.all('insert into poster_downloads (poster_id, day, n) values (?, ?, ?)', [pid, day(-d), Math.floor(Math.random() * 40 * (1 + (i % 5)))]);
    }
  }
  for (let i = 0; i < 200; i++) {
    const created = new Date(Date.now() - Math.floor(Math.random() * 60) * DAY_MS).toISOString();
    await sql.all(`insert into accounts (role, name, phone_number, status, master_app_id, created_at, updated_at) values ('USER', 'U', ?, 'ACTIVE', ?, ?, ?)`, [String(8000000000 + i), apps[i % 3], created, created]);
  }
  for (const [w, h, tag] of [[1440, 900, 'wide'], [390, 844, 'phone']] as const) {
    await page.setViewportSize({ width: w, height: h });
    if (tag === 'wide') await signIn(page);
    await page.goto('/?inDays=30');
    await page.waitForTimeout(1000);
    await page.mouse.wheel(0, 3000);
    await page.waitForTimeout(500);
    await page.getByRole('heading', { name: 'Trends' }).scrollIntoViewIfNeeded();
    await page.waitForTimeout(1500);
    await page.screenshot({ path: `/tmp/shots/dash-${tag}.png`, fullPage: true });
    await page.goto(`/special-day?view=calendar&month=${day(3).slice(0, 7)}`);
    await page.waitForTimeout(1500);
    await page.screenshot({ path: `/tmp/shots/cal-${tag}.png`, fullPage: true });
  }
});
