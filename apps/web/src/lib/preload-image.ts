/**
 * Starts downloading an image the page is about to show, as soon as its URL is known (when a
 * prefetched answer arrives) rather than when the page has rendered and laid it out. The
 * page's <img> with the same URL then takes it from the memory cache.
 */
export function preloadImage(src: string, priority: 'high' | 'low' | 'auto' = 'auto'): void {
  const img = new Image();
  img.fetchPriority = priority;
  img.src = src;
}
