// The files of a project (and, read-only, of a template), and the project's zip export. Every
// write goes through the content writer (content/writer.ts), which checks the rules first.
import type { Database } from '../../db/index.ts';
import { bool } from '../../db/executor.ts';
import { invalid, notAllowed, notFound } from '../common/errors.ts';
import { findClientPlan } from '../plans/repo.ts';
import type { ContentWriter, VersionNote } from '../content/writer.ts';
import { findTemplate } from '../templates/repo.ts';
import { decodeContent } from './content.ts';
import { replaceElementText } from './text-edit.ts';
import { isPicture, replaceImageElement } from './image-edit.ts';
import { sha256 } from './content.ts';
import * as repo from './repo.ts';
import { validPath } from './rules.ts';
import type { FileMeta, FileWithContent } from './schema.ts';
import { authorOf, type Principal } from '../access/principal.ts';
import { requireAgency } from '../access/access.ts';
import { visibleProject } from '../access/projects.ts';

/** How a file changed (the version it makes says so; its author is the principal). */
export interface FileChange {
  source?: 'files_api' | 'edit';
  /** What the version's summary says instead of "Changed <path>". */
  summary?: string;
}

/** The version a change of files makes: its source and author, and what it says. */
function versionOf(principal: Principal, change: FileChange, summary: string): VersionNote {
  return {
    source: change.source ?? 'files_api',
    summary: change.summary ?? summary,
    actor: authorOf(principal),
  };
}

export class FilesService {
  constructor(
    private readonly database: Database,
    private readonly writer: ContentWriter,
  ) {}

  private get db() {
    return this.database.db;
  }

  async list(principal: Principal, projectId: string): Promise<FileMeta[]> {
    await visibleProject(this.db, principal, projectId);
    return repo.listFiles(this.db, principal.orgId, projectId);
  }

  async get(principal: Principal, projectId: string, rawPath: string): Promise<FileWithContent> {
    await visibleProject(this.db, principal, projectId);
    const file = await repo.getFile(this.db, principal.orgId, projectId, validPath(rawPath));
    if (!file) throw notFound('File');
    return file;
  }

  /**
   * Creates or replaces one file; `created` tells which. The project's files after it become a
   * new version (`source`: a write through the files API, or an edit in the builder) unless the
   * content is what the file held already.
   */
  async put(
    principal: Principal,
    projectId: string,
    rawPath: string,
    body: { content: string; encoding?: 'utf8' | 'base64' | undefined },
    change: FileChange = {},
  ): Promise<{ file: FileMeta; created: boolean }> {
    const path = validPath(rawPath);
    const content = decodeContent(body.content, body.encoding ?? 'utf8');
    if (!content) throw invalid(`field 'content' is not valid base64`);
    return this.write(principal, projectId, path, content, change);
  }

  /** Creates or replaces one file with `content` as it is (a file sent as raw bytes). */
  async putBytes(
    principal: Principal,
    projectId: string,
    rawPath: string,
    content: Buffer,
    change: FileChange = {},
  ): Promise<{ file: FileMeta; created: boolean }> {
    return this.write(principal, projectId, validPath(rawPath), content, change);
  }

  /** One file's write at a checked `path`. */
  private write(
    principal: Principal,
    projectId: string,
    path: string,
    content: Buffer,
    change: FileChange,
  ): Promise<{ file: FileMeta; created: boolean }> {
    return this.writer.change(principal, projectId, {
      write: (files) => files.put(path, content),
      version: ({ created }) => versionOf(principal, change, `${created ? 'Added' : 'Changed'} ${path}`),
    });
  }

  /**
   * Replaces the text of one element of an HTML page (the builder's in-place edit), read and
   * written under the project's lock so that no change made meanwhile is lost.
   */
  async editText(
    principal: Principal,
    projectId: string,
    edit: { file: string; selector: string; text: string },
    change: FileChange = {},
  ): Promise<FileMeta> {
    const path = validPath(edit.file);
    if (!/\.html?$/i.test(path)) throw invalid(`field 'file': only HTML pages can be edited in place`);
    return this.writer.change(principal, projectId, {
      write: async (files) => {
        const current = await files.get(path);
        if (!current || current.encoding !== 'utf8') throw notFound('File');
        const content = Buffer.from(replaceElementText(current.content, edit.selector, edit.text));
        return (await files.put(path, content)).file;
      },
      version: () => versionOf(principal, change, change.summary ?? `Edited text in ${path}`),
    });
  }

  /**
   * The builder's *Replace image* (image-edit.ts): the picture at `selector` in page `file` shows
   * `image` (one of the project's pictures) or `upload` (a new one, stored under `images/` first,
   * beside an earlier file of the same name rather than over it), with `alt`. One version.
   */
  async replaceImage(
    principal: Principal,
    projectId: string,
    edit: {
      file: string;
      selector: string;
      alt: string;
      image?: string;
      upload?: { name: string; content: Buffer };
    },
    change: FileChange = {},
  ): Promise<{ page: FileMeta; image: string }> {
    const path = validPath(edit.file, 'file');
    if (!/\.html?$/i.test(path)) throw invalid(`field 'file': only HTML pages hold pictures to replace`);
    if (!edit.image === !edit.upload) throw invalid('Choose one of the project’s images, or upload one');
    return this.writer.change(principal, projectId, {
      write: async (files) => {
        const current = await files.get(path);
        if (!current || current.encoding !== 'utf8') throw notFound('File');
        let image: string;
        if (edit.upload) {
          image = await freeImagePath(edit.upload, (p) => files.get(p));
          await files.put(image, edit.upload.content);
        } else {
          image = validPath(edit.image!, 'image');
          if (!isPicture(image))
            throw invalid(`field 'image': '${image}' is no picture (JPEG, PNG, WebP, AVIF, GIF or SVG)`);
          if (!(await files.get(image))) throw invalid(`field 'image': the project has no file '${image}'`);
        }
        const html = replaceImageElement(current.content, path, edit.selector, image, edit.alt);
        return { page: (await files.put(path, Buffer.from(html))).file, image };
      },
      version: ({ image }) => versionOf(principal, change, `Replaced a picture in ${path} with ${image}`),
    });
  }

  async delete(
    principal: Principal,
    projectId: string,
    rawPath: string,
    change: FileChange = {},
  ): Promise<string> {
    const path = validPath(rawPath);
    return this.writer.change(principal, projectId, {
      write: async (files) => {
        if (!(await files.delete(path))) throw notFound('File');
        return path;
      },
      version: () => versionOf(principal, change, `Deleted ${path}`),
    });
  }

  /** The zip of the project's files and a file name for it, when the client's plan allows export. */
  async export(principal: Principal, projectId: string): Promise<{ zip: Buffer; fileName: string }> {
    const project = await visibleProject(this.db, principal, projectId);
    const { orgId } = principal;
    if (project.org_client_id) {
      const plan = await findClientPlan(this.db, orgId, project.org_client_id);
      if (plan && !bool(plan.can_export_code)) {
        throw notAllowed(
          `Code export is not included in this client's plan '${plan.name}' (can_export_code is false)`,
        );
      }
    }
    const zip = await repo.zipProjectFiles(this.db, orgId, project.id);
    return { zip, fileName: `${(project.subdomain ?? project.id).replace(/[^a-z0-9-]/gi, '')}.zip` };
  }

  async listTemplateFiles(principal: Principal, templateId: string): Promise<FileMeta[]> {
    requireAgency(principal, "Templates are the agency's");
    const { orgId } = principal;
    if (!(await findTemplate(this.db, orgId, templateId))) throw notFound('Template');
    return repo.listTemplateFiles(this.db, orgId, templateId);
  }
}

/**
 * Where an uploaded picture is stored: `images/` and its name made a safe path (letters, digits,
 * `-`, `_`, `.`); the same bytes already there are reused, other bytes get `-2`, `-3`… added.
 */
async function freeImagePath(
  upload: { name: string; content: Buffer },
  existing: (path: string) => Promise<{ sha256: string } | undefined | null>,
): Promise<string> {
  const leaf = upload.name.split(/[\\/]/).pop() ?? '';
  const dot = leaf.lastIndexOf('.');
  const extension =
    dot > 0
      ? leaf
          .slice(dot + 1)
          .toLowerCase()
          .replace(/[^a-z0-9]/g, '')
      : '';
  if (!isPicture(`x.${extension}`))
    throw invalid(`'${leaf.slice(0, 100)}' is no picture: upload a JPEG, PNG, WebP, AVIF, GIF or SVG`);
  const stem =
    (dot > 0 ? leaf.slice(0, dot) : leaf)
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'picture';
  const hash = sha256(upload.content);
  for (let n = 1; n < 1000; n++) {
    const path = `images/${stem}${n === 1 ? '' : `-${n}`}.${extension}`;
    const there = await existing(path);
    if (!there || there.sha256 === hash) return path;
  }
  throw invalid('Too many pictures of that name: rename the file and upload it again');
}
