import type { CatalogNode } from '../catalogNodes';

/**
 * The built-in skills (`builtins/*.md`) parsed ahead of time, so the browser
 * entry needs no YAML parser. Generated: after editing a skill file run
 * `UPDATE_BUILTINS=1 npx vitest run src/runtime/slash/builtinSkillData.test.ts`.
 */
export const BUILT_IN_SKILL_NODES: readonly CatalogNode[] = [
  {
    "path": "Skill/agent",
    "namespace": "Skill",
    "id": "agent",
    "nodeType": "Skill",
    "name": "/agent",
    "description": "Switch the agent that answers your next messages",
    "skill": {
      "action": {
        "kind": "Pick",
        "query": "namespace:Agent nodeType:Agent sort:order",
        "field": "agentName",
        "title": "Choose an agent"
      },
      "autoMount": true,
      "launchesSubThread": false
    },
    "order": 1,
    "keywords": [
      "persona",
      "assistant",
      "switch"
    ]
  },
  {
    "path": "Skill/model",
    "namespace": "Skill",
    "id": "model",
    "nodeType": "Skill",
    "name": "/model",
    "description": "Choose the model the next turns run on",
    "skill": {
      "action": {
        "kind": "Pick",
        "query": "namespace:Model nodeType:Model sort:order",
        "field": "modelName",
        "title": "Choose a model"
      },
      "autoMount": true,
      "launchesSubThread": false
    },
    "order": 2,
    "keywords": [
      "claude",
      "llm",
      "switch"
    ]
  },
  {
    "path": "Skill/harness",
    "namespace": "Skill",
    "id": "harness",
    "nodeType": "Skill",
    "name": "/harness",
    "description": "Run the chat in the built-in harness or hand it to a command-line agent",
    "skill": {
      "action": {
        "kind": "Pick",
        "query": "namespace:Harness nodeType:Harness sort:order",
        "field": "harness",
        "title": "Choose a harness"
      },
      "autoMount": true,
      "launchesSubThread": false
    },
    "order": 3,
    "keywords": [
      "cli",
      "claude code",
      "copilot"
    ]
  },
  {
    "path": "Skill/clear",
    "namespace": "Skill",
    "id": "clear",
    "nodeType": "Skill",
    "name": "/clear",
    "description": "Start a fresh thread; the current one stays in the history",
    "skill": {
      "action": {
        "kind": "NewThread"
      },
      "autoMount": true,
      "launchesSubThread": false
    },
    "order": 4,
    "keywords": [
      "new",
      "reset",
      "thread"
    ]
  },
  {
    "path": "Skill/help",
    "namespace": "Skill",
    "id": "help",
    "nodeType": "Skill",
    "name": "/help",
    "description": "Show what the slash skills do and how to use them",
    "skill": {
      "instructions": "Type `/` at the start of the message box to list the skills you can use here.\n\n- A skill with an action runs it: `/agent` and `/model` open a picker and write your choice onto the thread, `/clear` starts a fresh thread.\n- A skill with instructions takes a task after its name: `/summarize the last import` loads the skill's instructions, then does exactly what you typed. Without a task it shows its help.\n- Skills come from three places: the platform, this space, and your own private ones. Yours shadow the space's, which shadow the platform's.",
      "autoMount": true,
      "launchesSubThread": false
    },
    "order": 5,
    "keywords": [
      "commands",
      "skills",
      "usage"
    ]
  },
  {
    "path": "Skill/summarize",
    "namespace": "Skill",
    "id": "summarize",
    "nodeType": "Skill",
    "name": "/summarize",
    "description": "Summarise records, results or this thread in three plain bullet points",
    "skill": {
      "instructions": "When this skill is loaded, answer with a summary and nothing else:\n\n1. Start with one sentence that says what was summarised and how much of it (for example \"12 records imported today\").\n2. Then exactly three bullet points, most important first. Each bullet is one sentence in plain words; name concrete numbers, records or capabilities.\n3. If something failed or a postcondition was violated, the first bullet says so and what to do next.\n4. Never invent data: if you lack a figure, say which capability would fetch it and offer to run it.",
      "autoMount": true,
      "launchesSubThread": false
    },
    "order": 10,
    "keywords": [
      "summary",
      "tldr",
      "digest"
    ]
  }
];
