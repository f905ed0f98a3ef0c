/**
 * How a SQLite connection reads (the server's, its reader threads' and the bench floor's): the
 * database file memory-mapped, so a page already in the operating system's cache is read in
 * place rather than copied by a system call into SQLite's own small cache (2 MB by default).
 * Measured on a million users: counting a keyword's 10,000 matches that are live users (one row
 * lookup each) 10 → 5 ms. The map is shared by every connection and process through the page
 * cache, so it costs address space, not memory. SQLite caps it at 2 GiB; beyond, it reads as
 * before.
 */
import type SQLite from 'better-sqlite3';

const MMAP_BYTES = 2 ** 31;

export function readInPlace(db: SQLite.Database): void {
  db.pragma(`mmap_size = ${MMAP_BYTES}`);
}
