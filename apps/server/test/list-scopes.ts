/** What the routes add to every request of these lists (the rest take the request's query alone). */
export const LIST_ROUTE_SCOPES: Readonly<Record<string, Record<string, unknown>>> = {
  users: { role: 'USER' },
  staff: { role: 'STAFF' },
  user_images: { accountId: 1, kind: 'top' },
  wallets: { accountId: 1 },
  login_history: { accountId: 1 },
};
