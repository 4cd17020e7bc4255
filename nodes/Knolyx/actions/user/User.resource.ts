import { defineResource } from '../common';
import { enrol } from './enrol.operation';
import { provision } from './provision.operation';

export const user = defineResource('user', 'User', 'provision', { provision, enrol });
