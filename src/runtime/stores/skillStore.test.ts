import { createMemorySkillStore } from './skillStore';
import { skillStoreSuite } from './skillStore.suite';

skillStoreSuite('memory', () => createMemorySkillStore());
