import { defineResource } from '../common';
import { get } from './get.operation';
import { getAll } from './getAll.operation';
import { getImage } from './getImage.operation';

export const course = defineResource('course', 'Course', 'getAll', { get, getAll, getImage });
