// The custom client directives registered in astro.config.mjs, for editors and `astro check`.
import 'astro';

declare module 'astro' {
  interface AstroClientDirectives {
    'client:interaction'?: boolean;
  }
}
