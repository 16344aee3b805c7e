/** Shapes of the public GET calls of SPEC §7, as the API answers them (dates as ISO strings). */
export interface PublicTestimonial {
  id: string;
  clientName: string;
  rating: number;
  content: string;
  practiceArea: string;
  createdAt: string;
}

export interface PublicBlogPostSummary {
  id: string;
  title: string;
  slug: string;
  excerpt: string;
  category: string;
  author: string;
  publishedAt: string | null;
}

export interface PublicBlogPost extends PublicBlogPostSummary {
  content: string;
  createdAt: string;
  updatedAt: string;
}

export interface PublicExternalArticle {
  id: string;
  sourceId: string;
  sourceName: string;
  title: string;
  url: string;
  excerpt: string | null;
  author: string | null;
  publishedAt: string | null;
  imageUrl: string | null;
  isVisible: boolean;
  fetchedAt: string;
}

export interface ComponentVisibility {
  componentKey: string;
  isVisible: boolean;
}
