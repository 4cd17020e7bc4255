import { defineResource } from '../common';
import { get } from './get.operation';

export const apiKey = defineResource('apiKey', 'get', { get });
