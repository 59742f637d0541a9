import type { FieldErrors } from '@travel/platform';
import { addFieldError, codeKey, optionalText, requiredText } from './text';
import { recordCodeProblem, TEXT_MAX_LENGTH } from './limits';

// Departments and cost centers: the company's structure employees are placed in and charge to.
// Both have a name and a code unique per company (compared case-insensitively, so "cc-1" and "CC-1" clash).

export interface Department {
  _id: string;
  tenantId: string;
  name: string;
  code: string;
  /** `codeKey(code)`: what the per-company unique index compares. */
  codeKey: string;
  parentId: string | null;
  createdAt: Date;
  editedAt: Date;
  /** Incremented by every update; an update applies only to the revision it read. */
  rev: number;
}

export interface CostCenter {
  _id: string;
  tenantId: string;
  name: string;
  code: string;
  codeKey: string;
  description: string | null;
  isActive: boolean;
  createdAt: Date;
  editedAt: Date;
  rev: number;
}

export interface DepartmentWrite {
  name: string;
  code: string;
  parentId?: string | null;
}

export interface CostCenterWrite {
  name: string;
  code: string;
  description?: string | null;
  isActive?: boolean;
}

/** Deepest allowed department tree (a root department is level 1). */
export const MAX_DEPARTMENT_DEPTH = 20;

/** A full replace of a department's fields; an omitted parent makes it a root department. */
export function departmentFields(input: DepartmentWrite) {
  const errors: FieldErrors = {};
  const name = requiredText(input.name, TEXT_MAX_LENGTH.recordName);
  addFieldError(errors, 'name', name.problem);
  addFieldError(errors, 'code', recordCodeProblem(input.code));
  const code = String(input.code ?? '').trim();
  const fields = {
    name: name.value,
    code,
    codeKey: codeKey(code),
    parentId: input.parentId?.toLowerCase() ?? null,
  };
  return { fields, errors };
}

/** A full replace of a cost center's fields; omitted `isActive` is true, omitted `description` clears it. */
export function costCenterFields(input: CostCenterWrite) {
  const errors: FieldErrors = {};
  const name = requiredText(input.name, TEXT_MAX_LENGTH.recordName);
  const description = optionalText(input.description, true, TEXT_MAX_LENGTH.costCenterDescription);
  addFieldError(errors, 'name', name.problem);
  addFieldError(errors, 'description', description.problem);
  addFieldError(errors, 'code', recordCodeProblem(input.code));
  const code = String(input.code ?? '').trim();
  const fields = {
    name: name.value,
    code,
    codeKey: codeKey(code),
    description: description.value,
    isActive: input.isActive ?? true,
  };
  return { fields, errors };
}

/**
 * Why `parentId` cannot be the parent of department `selfId` (undefined on create), or undefined when it
 * can. `parents` maps every department of the company to its parent; the parent must be one of them,
 * must not be the department itself or below it, and the tree must stay within MAX_DEPARTMENT_DEPTH.
 */
export function parentProblem(
  selfId: string | undefined,
  parentId: string,
  parents: ReadonlyMap<string, string | null>,
): string | undefined {
  if (!parents.has(parentId)) return 'must be a department of this company';
  if (parentId === selfId) return 'a department cannot be its own parent';
  let depth = 1; // the parent's level, counted from the root
  for (let at = parents.get(parentId); at; at = parents.get(at)) {
    if (at === selfId) return 'would put the department below itself (a cycle)';
    if (++depth > MAX_DEPARTMENT_DEPTH) break;
  }
  const levels = depth + 1 + (selfId ? subtreeHeight(selfId, parents) - 1 : 0);
  if (levels > MAX_DEPARTMENT_DEPTH) return `would make the department tree deeper than ${MAX_DEPARTMENT_DEPTH} levels`;
  return undefined;
}

/** Levels of the subtree rooted at `rootId` (1 for a department without children). */
function subtreeHeight(rootId: string, parents: ReadonlyMap<string, string | null>): number {
  const children = new Map<string, string[]>();
  for (const [id, parent] of parents)
    if (parent) (children.get(parent) ?? children.set(parent, []).get(parent)!).push(id);
  let height = 0;
  let level = [rootId];
  const seen = new Set<string>();
  while (level.length && height <= MAX_DEPARTMENT_DEPTH) {
    height++;
    const next: string[] = [];
    for (const id of level) {
      if (seen.has(id)) continue;
      seen.add(id);
      next.push(...(children.get(id) ?? []));
    }
    level = next;
  }
  return height;
}
