import { defineResource } from '../common';
import { get } from './get.operation';

export const apiKey = defineResource('apiKey', 'API Key', 'get', { get });
