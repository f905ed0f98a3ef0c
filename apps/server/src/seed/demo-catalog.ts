/**
 * What the demo business is made of: its apps, categories, special days, people and texts. Names
 * identify demo rows, so `demo --force` finds the ones already there.
 */
import type { Grants } from '../features/accounts/service.ts';

export const DEMO_APPS = ['Utsav Posters', 'Festive Greetings', 'Brand Wishes'] as const;

/** The apps' own time zones (issue #35): two in India; the third follows DEFAULT_TIME_ZONE. */
export const DEMO_TIME_ZONES: Partial<Record<(typeof DEMO_APPS)[number], string>> = {
  'Utsav Posters': 'Asia/Kolkata',
  'Festive Greetings': 'Asia/Kolkata',
};

/** Domains of each app's settings (the player page allows them to embed videos). */
export const APP_DOMAINS: Record<(typeof DEMO_APPS)[number], string> = {
  'Utsav Posters': 'utsavposters.example',
  'Festive Greetings': 'festivegreetings.example',
  'Brand Wishes': 'brandwishes.example',
};

export const DEMO_CATEGORIES = [
  'Diwali',
  'Holi',
  'Eid',
  'Christmas',
  'New Year',
  'Navratri',
  'Ganesh Chaturthi',
  'Independence Day',
  'Republic Day',
  'Good Morning',
  'Birthday',
  'Business Offers',
  'Motivational Quotes',
  'Devotional',
] as const;

/** A year of special days: name, month, day, and the category its posters mostly belong to. */
export const DEMO_SPECIAL_DAYS: ReadonlyArray<
  readonly [name: string, month: number, day: number, category: string]
> = [
  ['New Year’s Day', 1, 1, 'New Year'],
  ['Lohri', 1, 13, 'Devotional'],
  ['Makar Sankranti', 1, 14, 'Devotional'],
  ['Pongal', 1, 15, 'Devotional'],
  ['Republic Day', 1, 26, 'Republic Day'],
  ['Vasant Panchami', 2, 2, 'Devotional'],
  ['Valentine’s Day', 2, 14, 'Business Offers'],
  ['Maha Shivaratri', 2, 26, 'Devotional'],
  ['International Women’s Day', 3, 8, 'Motivational Quotes'],
  ['Holi', 3, 14, 'Holi'],
  ['Gudi Padwa', 3, 30, 'Devotional'],
  ['Eid al-Fitr', 3, 31, 'Eid'],
  ['Ram Navami', 4, 6, 'Devotional'],
  ['Baisakhi', 4, 13, 'Devotional'],
  ['Ambedkar Jayanti', 4, 14, 'Motivational Quotes'],
  ['Akshaya Tritiya', 4, 30, 'Business Offers'],
  ['Labour Day', 5, 1, 'Motivational Quotes'],
  ['Mother’s Day', 5, 10, 'Good Morning'],
  ['Buddha Purnima', 5, 12, 'Devotional'],
  ['Eid al-Adha', 6, 7, 'Eid'],
  ['Father’s Day', 6, 21, 'Good Morning'],
  ['International Yoga Day', 6, 21, 'Motivational Quotes'],
  ['Guru Purnima', 7, 10, 'Devotional'],
  ['Friendship Day', 8, 2, 'Good Morning'],
  ['Raksha Bandhan', 8, 9, 'Devotional'],
  ['Independence Day', 8, 15, 'Independence Day'],
  ['Janmashtami', 8, 16, 'Devotional'],
  ['Ganesh Chaturthi', 8, 27, 'Ganesh Chaturthi'],
  ['Teachers’ Day', 9, 5, 'Motivational Quotes'],
  ['Onam', 9, 5, 'Devotional'],
  ['Gandhi Jayanti', 10, 2, 'Independence Day'],
  ['Navratri', 10, 3, 'Navratri'],
  ['Dussehra', 10, 12, 'Navratri'],
  ['Karva Chauth', 10, 20, 'Devotional'],
  ['Dhanteras', 11, 6, 'Diwali'],
  ['Diwali', 11, 8, 'Diwali'],
  ['Bhai Dooj', 11, 10, 'Diwali'],
  ['Children’s Day', 11, 14, 'Birthday'],
  ['Guru Nanak Jayanti', 11, 15, 'Devotional'],
  ['Christmas', 12, 25, 'Christmas'],
  ['New Year’s Eve', 12, 31, 'New Year'],
];

export const GREETINGS = [
  'Wishing you joy and prosperity',
  'Warm wishes to you and your family',
  'Celebrate with love and light',
  'May this day bring you happiness',
  'Best wishes from all of us',
  'Shine bright, stay blessed',
] as const;

export const FIRST_NAMES = [
  'Aarav', 'Ananya', 'Rohan', 'Priya', 'Vikram', 'Sneha', 'Arjun', 'Kavya', 'Imran', 'Fatima',
  'Rahul', 'Pooja', 'Suresh', 'Lakshmi', 'Deepak', 'Meera', 'Harpreet', 'Joseph', 'Neha', 'Aditya',
] as const; // prettier-ignore
export const SURNAMES = [
  'Sharma', 'Patel', 'Iyer', 'Khan', 'Das', 'Reddy', 'Singh', 'Nair', 'Gupta', 'Fernandes',
  'Joshi', 'Mehta', 'Bose', 'Kulkarni',
] as const; // prettier-ignore
export const BUSINESSES = [
  'Sweets', 'Jewellers', 'Electronics', 'Travels', 'Classes', 'Pharmacy', 'Textiles', 'Bakery',
  'Motors', 'Realty', 'Salon', 'Opticals',
] as const; // prettier-ignore
export const DESIGNATIONS = ['Owner', 'Manager', 'Proprietor', 'Director', 'Partner'] as const;
export const CITIES = ['Pune', 'Jaipur', 'Chennai', 'Lucknow', 'Kochi', 'Indore', 'Surat'] as const;

export const DEMO_BLOGS: ReadonlyArray<readonly [title: string, author: string, summary: string]> =
  [
    ['10 Diwali poster ideas that bring customers in', 'Meera Joshi', 'Lamps, offers and a clear call to your shop: what works on a festival poster.'],
    ['How to add your logo to every greeting', 'Rohan Das', 'Top and bottom images put your brand on each poster you share.'],
    ['The festival calendar for small businesses', 'Ananya Iyer', 'Plan your greetings a month ahead with the special-day calendar.'],
    ['Why short videos get more shares', 'Vikram Singh', 'Status videos of ten seconds or less are watched to the end.'],
    ['Choosing colours that print and share well', 'Kavya Nair', 'Warm gradients for festivals, calm blues for offers.'],
    ['Good morning posters: the daily habit', 'Imran Khan', 'A daily greeting keeps your name in front of your customers.'],
    ['Writing a festival offer in one line', 'Pooja Gupta', 'Short, specific and dated: offers people act on.'],
    ['From one shop to three apps', 'Deepak Mehta', 'How one design reaches every app’s users at once.'],
  ]; // prettier-ignore

export const DEMO_FAQS: ReadonlyArray<readonly [question: string, answer: string]> = [
  ['How do I put my photo on a poster?', 'Upload a self image in your profile; it is placed in the lower corner of every poster.'],
  ['Can I change the side my photo appears on?', 'Yes: each self image keeps its side, left or right.'],
  ['Why is my top image cut at the edges?', 'Top images are scaled to the poster’s width and cropped around their centre to a quarter of its height.'],
  ['How many top images can I keep?', 'As many as you like, each with its own number; a poster uses the number it names.'],
  ['When do new festival posters appear?', 'Usually two to four weeks before the day.'],
  ['Can I download videos?', 'Yes, every video has a download button in the app.'],
  ['How do I earn wallet points?', 'Registering, sharing and posting earn points; they show in your wallet history.'],
  ['Is my phone number shared?', 'No. It is used only to sign you in and is never shown to other users.'],
  ['How do I report a wrong poster?', 'Write to us from the contact form with the poster’s name.'],
  ['Can I use the posters for my business?', 'Yes, posters are free for personal and business greetings.'],
]; // prettier-ignore

export const NOTIFICATION_TEXTS: ReadonlyArray<readonly [title: string, desc: string, type: string]> = [
  ['New Diwali posters are live', 'Forty new designs for Diwali and Dhanteras.', 'POSTER'],
  ['Your profile is ready', 'Add your top image to brand every poster.', 'ACCOUNT'],
  ['Good morning collection updated', 'Fresh daily greetings for the week.', 'POSTER'],
  ['Festival videos added', 'Short videos to share on your status.', 'VIDEO'],
  ['Wallet reward credited', 'You earned points for sharing this week.', 'WALLET'],
  ['Plan ahead for the next festival', 'See the calendar for the coming special days.', 'GENERAL'],
  ['Update available', 'The new version makes sharing faster.', 'GENERAL'],
  ['Offer posters for your shop', 'Business offer designs with space for your logo.', 'POSTER'],
]; // prettier-ignore

export const ENQUIRIES = [
  'I cannot find the Diwali posters in my app. Please help.',
  'Can you add posters for our regional festival?',
  'My top image looks stretched on the posters.',
  'How do I change my registered phone number?',
  'We would like posters for our jewellery shop’s anniversary.',
  'The video does not download on my phone.',
  'Please add Marathi text to the Gudi Padwa posters.',
  'Wallet points were not added after sharing.',
] as const;

/** The two staff members: a content editor and a support agent, with different grants. */
export const DEMO_STAFF: ReadonlyArray<{
  name: string;
  email: string;
  phoneNumber: string;
  roles: string;
  grants: Grants;
}> = [
  {
    name: 'Neha Kulkarni',
    email: 'neha.editor@example.com',
    phoneNumber: '9800000001',
    roles: 'Content editor',
    grants: {
      dashboard: ['VIEW'],
      category: ['VIEW', 'CREATE', 'UPDATE'],
      specialDay: ['VIEW', 'CREATE', 'UPDATE'],
      poster: ['VIEW', 'CREATE', 'UPDATE', 'DELETE'],
      video: ['VIEW', 'CREATE', 'UPDATE', 'DELETE'],
      banner: ['VIEW', 'CREATE', 'UPDATE'],
    },
  },
  {
    name: 'Joseph Fernandes',
    email: 'joseph.support@example.com',
    phoneNumber: '9800000002',
    roles: 'Support',
    grants: {
      users: ['VIEW', 'UPDATE'],
      contactUs: ['VIEW'],
      notification: ['VIEW', 'CREATE'],
      faqs: ['VIEW', 'CREATE', 'UPDATE'],
    },
  },
];

export const PAGE_TEXTS: Record<string, (app: string) => string> = {
  'About Us': (app) =>
    `<h2>About ${app}</h2><p>${app} brings festival greetings, business offers and daily posters to shops and families, with their own name and photo on every design.</p><p>New designs arrive weeks before each festival.</p>`,
  'Privacy Policy': (app) =>
    `<h2>Privacy Policy</h2><p>${app} keeps your name, phone number and the images you upload to place them on posters. We never sell them or show your number to other users.</p><ul><li>You can delete your images at any time.</li><li>Write to us to close your account.</li></ul>`,
  'Terms and Conditions': (app) =>
    `<h2>Terms and Conditions</h2><p>Posters and videos of ${app} may be shared for personal and business greetings. Do not upload images you have no right to use.</p>`,
};
