// Checks JSON-LD the way a structured-data validator does, offline: the document must expand as
// JSON-LD (jsonld.js, the reference processor), and every type and property it uses must be in
// the schema.org vocabulary (the `schemaorg-jsonld` package), each property on a type its
// domain includes (or a subtype), and a text value only where the property's range takes text.
import { createRequire } from 'node:module';
import jsonld from 'jsonld';

interface VocabularyEntry {
  '@id': string;
  '@type'?: string[];
  'http://www.w3.org/2000/01/rdf-schema#subClassOf'?: { '@id': string }[];
  'http://schema.org/domainIncludes'?: { '@id': string }[];
  'http://schema.org/rangeIncludes'?: { '@id': string }[];
}

const vocabulary = createRequire(import.meta.url)('schemaorg-jsonld/schema.json') as VocabularyEntry[];
const byId = new Map(vocabulary.map((entry) => [entry['@id'], entry]));
const RDF_CLASS = 'http://www.w3.org/2000/01/rdf-schema#Class';
const RDF_PROPERTY = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#Property';
const SCHEMA = 'http://schema.org/';

/** Stands in for fetching schema.org's context: the vocabulary is the default for every term. */
const documentLoader = async (url: string) => {
  if (!/^https?:\/\/schema\.org\/?$/.test(url)) throw new Error(`no document loaded from ${url}`);
  return {
    contextUrl: undefined,
    documentUrl: url,
    document: { '@context': { '@vocab': 'https://schema.org/' } },
  };
};

const ids = (list?: { '@id': string }[]) => (list ?? []).map((item) => item['@id']);

/** The type and every type above it. */
function ancestors(type: string): Set<string> {
  const seen = new Set<string>();
  const queue = [type];
  while (queue.length > 0) {
    const next = queue.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    queue.push(...ids(byId.get(next)?.['http://www.w3.org/2000/01/rdf-schema#subClassOf']));
  }
  return seen;
}

const takesText = (property: VocabularyEntry) =>
  ids(property['http://schema.org/rangeIncludes']).some((range) => ancestors(range).has(`${SCHEMA}Text`));

/** The problems found in `document` (empty: valid). */
export async function schemaOrgProblems(document: object): Promise<string[]> {
  const problems: string[] = [];
  // `safe`: a term that expands to nothing is an error, not silently dropped (its types lack it).
  const options = { documentLoader, safe: true } as unknown as Parameters<typeof jsonld.expand>[1];
  const expanded = (await jsonld.expand(document as jsonld.JsonLdDocument, options)) as unknown as Record<
    string,
    unknown
  >[];
  if (expanded.length === 0) problems.push('the document expands to nothing');
  for (const node of expanded) {
    const types = ((node['@type'] as string[] | undefined) ?? []).map((t) => t.replace(/^https:/, 'http:'));
    if (types.length === 0) problems.push('a node has no @type');
    const above = new Set(types.flatMap((type) => [...ancestors(type)]));
    for (const type of types)
      if (!byId.get(type)?.['@type']?.includes(RDF_CLASS)) problems.push(`${type} is not a schema.org type`);
    for (const [key, values] of Object.entries(node)) {
      if (key.startsWith('@')) continue;
      const iri = key.replace(/^https:/, 'http:');
      const property = byId.get(iri);
      if (!property?.['@type']?.includes(RDF_PROPERTY)) {
        problems.push(`${iri} is not a schema.org property`);
        continue;
      }
      if (!ids(property['http://schema.org/domainIncludes']).some((domain) => above.has(domain)))
        problems.push(`${iri} is not a property of ${types.join(', ')}`);
      for (const value of values as Record<string, unknown>[])
        if ('@value' in value && !takesText(property)) problems.push(`${iri} does not take text`);
    }
  }
  return problems;
}
