/** A posters list row as the server answers it, for the screens that show posters. */
export const image = (id: number) =>
  `/media/posters/ab/${'c'.repeat(62)}${String(id).padStart(2, '0')}.webp`;

export const poster = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  version: 1,
  masterAppId: 2,
  categoryId: 3,
  specialDayId: 5,
  topDefNum: 1,
  selfDefNum: 2,
  bottomDefNum: 3,
  poster: image(id),
  videoThumb: null,
  date: '2026-11-12',
  downloadCount: 1234,
  status: 'ACTIVE',
  position: 'LEFT',
  liveFrom: null,
  liveUntil: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  account: { id: 1, phoneNumber: null },
  category: { id: 3, name: 'Festivals' },
  masterApp: { id: 2, name: 'Festival' },
  specialDay: { id: 5, name: 'Diwali', day: 12, month: 11 },
  ...overrides,
});
