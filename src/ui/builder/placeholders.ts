// Placeholders a generated site still shows (`data-sw-todo`: a phone number, prices, a photo the
// builtin generator would not invent). Publishing leaves them out (modules/publishing/
// placeholders.ts); the builder lists them before publishing, with the pages that would go whole,
// so nobody wonders where the team section went.
import type { Principal } from '../../modules/access/principal.ts';
import type { Services } from '../../modules/index.ts';

export interface Placeholders {
  count: number;
  /** The first few, as the builder shows them ("Add your phone number"), with their page. */
  examples: { page: string; text: string }[];
  /** Pages left with nothing real in them: they are not published. */
  pages: string[];
}

export async function placeholdersOf(
  services: Services,
  principal: Principal,
  projectId: string,
): Promise<Placeholders> {
  const { placeholders, pages } = await services.publishing.leftOut(principal, projectId);
  const examples: Placeholders['examples'] = [];
  for (const found of placeholders)
    if (examples.length < 8 && !examples.some((e) => e.text === found.text) && found.page !== '404.html')
      examples.push(found);
  return { count: placeholders.length, examples, pages };
}
