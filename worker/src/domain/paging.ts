/** The list envelope every list endpoint answers with (SPEC §2), newest first. */
export function listEnvelope<T>(
  items: T[],
  totals: { total: number } | undefined,
  page: { offset: number; limit: number },
) {
  const total = totals?.total ?? 0;
  return {
    items,
    total,
    offset: page.offset,
    limit: page.limit,
    has_more: page.offset + items.length < total,
  };
}
