/** A users list row as the server answers it, for the users screens' tests. */
export const user = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  version: 1,
  phoneNumber: `98765432${id}`,
  status: 'ACTIVE',
  dateLimit: null,
  masterAppId: 2,
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  userDetail: {
    id,
    userId: id,
    name: `User ${id}`,
    email: null,
    profile: null,
    top: null,
    bottom: null,
    designation: null,
    adminAssignName: null,
  },
  masterApp: { id: 2, name: 'Festival' },
  ...overrides,
});
