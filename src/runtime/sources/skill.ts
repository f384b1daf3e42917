import * as z from 'zod/mini';
import { checkDescriptor, type Actor, type CapabilityDescriptor, type SkillSource } from '../capability';
import { parseSkillMd, SkillFormatError, type ParsedSkill } from '../skillMd';

export interface SkillCapabilityOptions {
  /** Where the text came from; used in error messages and checked against the skill's name. @default 'SKILL.md' */
  file?: string;
  /** Title on chips and cards. @default metadata.title, else the name in words ("pdf-tools" → "Pdf tools") */
  title?: string;
  /** The character shown in the cast row while it loads. */
  actor?: Actor;
}

/**
 * A SKILL.md as one capability, named and described by its frontmatter.
 * Invoking it emits `skill.activated` (the whole body joins the
 * active-skills prompt slab, read from `registry.get(name).source.body`)
 * and returns a short acknowledgement, never the body. Throws a
 * `SkillFormatError` naming the file, the field and the rule for a bad file.
 * @example
 * const pdf = defineSkillCapability(await readFile(path, 'utf8'), { file: 'skills/pdf-tools/SKILL.md' });
 * registry.register(pdf);
 */
export function defineSkillCapability(
  skill: string | ParsedSkill,
  options: SkillCapabilityOptions = {},
): CapabilityDescriptor<Record<string, never>> & { source: SkillSource } {
  let parsed: ParsedSkill;
  if (typeof skill === 'string') {
    const file = options.file ?? 'SKILL.md';
    const result = parseSkillMd(skill, file);
    if (!result.ok) throw new SkillFormatError(file, result.problems);
    parsed = result.skill;
  } else {
    parsed = skill;
  }
  const { name, description, frontmatter, body, file } = parsed;
  const descriptor: CapabilityDescriptor<Record<string, never>> & { source: SkillSource } = {
    name,
    title: options.title ?? frontmatter.metadata?.title ?? words(name),
    description,
    kind: 'read',
    // A skill that launches a sub-thread (`metadata.launchesSubThread: "true"`) takes the task to run there.
    input: (frontmatter.metadata?.launchesSubThread === 'true'
      ? z.object({
          task: z.optional(z.string().check(z.maxLength(8_000), z.meta({ title: 'Task', description: 'What the sub-thread should do with the skill.' }))),
        })
      : z.object({})) as unknown as z.ZodMiniType<Record<string, never>>,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    source: { type: 'skill', name, body, frontmatter, file },
  };
  if (options.actor) descriptor.actor = options.actor;
  checkDescriptor(descriptor);
  return descriptor;
}

function words(name: string): string {
  const text = name.replace(/-/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
