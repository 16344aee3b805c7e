/**
 * The firm's facts, in one place: the pages, the footer disclaimer (Cal. RPC 7.2(c): name and office
 * address), JSON-LD, seed content and e-mails all read them from here. Safe for the browser.
 */
export const firm = {
  name: 'Pacific Crest Law Group',
  legalName: 'Pacific Crest Law Group, APC',
  phone: '(619) 555-0123',
  phoneHref: 'tel:+16195550123',
  email: 'info@pacificcrestlaw.com',
  address: {
    street: '600 West Broadway, Suite 1200',
    city: 'San Diego',
    region: 'CA',
    postalCode: '92101',
    country: 'US',
  },
  timeZone: 'America/Los_Angeles',
  hours: {
    weekdays: 'Monday-Friday 8:00 AM-6:00 PM',
    weekdaysShort: 'Mon-Fri 8:00 AM-6:00 PM',
    saturday: 'Saturday by appointment',
  },
  attorneys: [
    {
      slug: 'sarah-mitchell',
      name: 'Sarah J. Mitchell',
      title: 'Founding Partner, Estate Planning & Trust Administration',
    },
    {
      slug: 'michael-torres',
      name: 'Michael R. Torres',
      title: 'Partner, Family Law',
    },
  ],
} as const;

/** The news feed's title (/rss.xml), named again by every page's autodiscovery link. */
export const feedTitle = `${firm.name} | Legal News & Insights`;

export const firmAddressLine = `${firm.address.street}, ${firm.address.city}, ${firm.address.region} ${firm.address.postalCode}`;

/** SPEC §9: blog authors offered are the two attorneys and the firm name (default the firm). */
export const blogAuthors = [firm.name, ...firm.attorneys.map((a) => a.name)] as const;
export const defaultBlogAuthor = firm.name;

/** Search results show about 60-70 characters of a title: past that, a page's title goes without the firm's name. */
export const MAX_TITLE_LENGTH = 70;

/** 'Title | Pacific Crest Law Group', or the title alone when both would not fit (an article's long title). */
export function titleWithFirm(title: string): string {
  const full = `${title} | ${firm.name}`;
  return full.length <= MAX_TITLE_LENGTH ? full : title;
}
