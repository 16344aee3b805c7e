/** A draft's preview link (api/blog-posts/preview-link.ts): the page, and the header the page sends its token in. */
export const BLOG_PREVIEW_PATH = '/blog-preview';
export const PREVIEW_TOKEN_HEADER = 'X-Preview-Token';
