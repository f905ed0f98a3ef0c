/**
 * The demo's blogs, FAQs and enquiries: rows found by their title, question or email.
 */
import type { Db } from '../db/connect.ts';
import { mediaPrefixes, sanitizeRichText } from '../http/rich-text.ts';
import type { MediaService } from '../media/service.ts';
import {
  BUSINESSES,
  CITIES,
  DEMO_BLOGS,
  DEMO_FAQS,
  ENQUIRIES,
  FIRST_NAMES,
  SURNAMES,
} from './demo-catalog.ts';
import { PALETTES, cardSvg, storePicture } from './demo-pictures.ts';
import type { DemoScope } from './demo.ts';

/** Blogs, FAQs and enquiries: rows with a title or question of their own. */
export async function seedWriting(db: Db, media: MediaService, scope: DemoScope) {
  const { size, rng, at, tally } = scope;
  const prefixes = mediaPrefixes(media.store);
  for (const [b, [title, author, shortDesc]] of DEMO_BLOGS.slice(0, size.blogs).entries()) {
    const found = await db
      .selectFrom('blogs')
      .select('id')
      .where('title', '=', title)
      .executeTakeFirst();
    if (found) continue;
    const image = await storePicture(
      media,
      cardSvg(
        800,
        450,
        title.split(' ').slice(0, 3).join(' '),
        author,
        PALETTES[b % PALETTES.length]!,
      ),
      'blogs',
    );
    const stamp = at(15 + b * 40 + rng.int(20));
    const desc = sanitizeRichText(
      `<p>${shortDesc}</p><h3>In short</h3><ul><li>Plan a month ahead.</li><li>Keep the text short.</li><li>Put your name on it.</li></ul><p>Written by <strong>${author}</strong>.</p>`,
      prefixes,
    );
    await db
      .insertInto('blogs')
      .values({
        title,
        author,
        shortDesc,
        desc,
        image,
        date: stamp.slice(0, 10),
        popular: b < 3,
        status: b === 7 ? 'PENDING' : 'ACTIVE',
        createdAt: stamp,
        updatedAt: stamp,
      })
      .execute();
    tally.add('blogs');
  }
  for (const [question, answer] of DEMO_FAQS.slice(0, size.faqs)) {
    const found = await db
      .selectFrom('faqs')
      .select('id')
      .where('question', '=', question)
      .executeTakeFirst();
    if (found) continue;
    const stamp = at(200 + rng.int(100));
    await db
      .insertInto('faqs')
      .values({ question, answer, createdAt: stamp, updatedAt: stamp })
      .execute();
    tally.add('FAQs');
  }
  for (let e = 0; e < size.enquiries; e++) {
    const fName = FIRST_NAMES[(e * 7) % FIRST_NAMES.length]!;
    const lName = SURNAMES[(e * 3) % SURNAMES.length]!;
    const email = `${fName}.${lName}${e}@mail.example`.toLowerCase();
    const found = await db
      .selectFrom('contactUs')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirst();
    if (found) continue;
    const business = BUSINESSES[e % BUSINESSES.length]!;
    await db
      .insertInto('contactUs')
      .values({
        fName,
        lName,
        email,
        phoneNumber: `+9197${String(10_000_000 + e * 7919).slice(0, 8)}`,
        query: `${ENQUIRIES[e % ENQUIRIES.length]!} (${lName} ${business}, ${CITIES[e % CITIES.length]!})`,
        createdAt: at(rng.int(360)),
      })
      .execute();
    tally.add('enquiries');
  }
}
