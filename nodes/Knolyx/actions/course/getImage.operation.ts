import type { INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { getCourseImage } from '../../transport';
import { safeFileName } from '../../helpers/fileName';
import type { Id } from '../../helpers/validation';
import { requireLongId, requireString } from '../../helpers/validation';
import { resourceLocator } from '../common';
import type { FileResult, KnolyxOperation } from '../types';

interface GetImageParams {
	courseId: Id;
	binaryPropertyName: string;
}

const displayOptions = { show: { resource: ['course'], operation: ['getImage'] } };

const binaryPropertyField: INodeProperties = {
	displayName: 'Put Output File in Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	required: true,
	hint: 'The name of the output binary field to put the file in',
};

/** The course image as a binary file (GET /course/{courseId}/image). */
export const getImage: KnolyxOperation<GetImageParams> = {
	option: {
		name: 'Get Image',
		description: 'Download the course image as a file (binary output). Needs COURSE_GET.',
		action: 'Get the image of a course',
	},
	agent: { effects: ['readOnly'] },
	readme: {
		does: "The course image as a file (binary output in *Put Output File in Field*, default `data`; MIME type and extension from the file's bytes, file name from the answer made one Windows stores; see [what it accepts and how it names the file](docs/reliability.md#redirects-timeouts-and-size-bounds)). A course without an image is an error naming it.",
	},
	description: updateDisplayOptions(displayOptions, [
		resourceLocator('course'),
		binaryPropertyField,
	]),
	outputsFile: true,
	prepare(itemIndex) {
		return {
			courseId: requireLongId(this, itemIndex, 'courseId', 'Course'),
			binaryPropertyName: requireString(
				this,
				itemIndex,
				'binaryPropertyName',
				'Put Output File in Field',
			),
		};
	},
	async execute({ courseId, binaryPropertyName }, runtime): Promise<FileResult> {
		const { body: file } = await getCourseImage(runtime.client, courseId, runtime.itemIndex);
		if (file.data.length === 0) {
			throw new NodeOperationError(
				this.getNode(),
				`Course ${courseId} has no image: Knolyx answered with an empty file`,
				{
					itemIndex: runtime.itemIndex,
				},
			);
		}
		// The bytes decide, not the Content-Type: a problem+json, a sign-in page or a PNG sent
		// without a type are told apart by their first bytes.
		const mimeType = file.imageType;
		if (!mimeType) {
			throw new NodeOperationError(
				this.getNode(),
				`Knolyx answered with something that is not an image (Content-Type: ${file.mimeType ?? 'none'}) instead of the image of course ${courseId}`,
				{
					itemIndex: runtime.itemIndex,
					description:
						'This is not an image: its first bytes are none of PNG, JPEG, GIF, WebP, AVIF, BMP, TIFF, ICO or SVG. Check the base URL of the Knolyx credential: it must point at the Knolyx API (https://api.knolyx.com, or the https address Knolyx gave your organisation, with its path (such as /api) when it has one).',
				},
			);
		}
		// One name, never a path, that Windows stores as given, with the extension of the bytes.
		const fileName = safeFileName(file.fileName, mimeType, `course-${courseId}-image`);
		const binary = await this.helpers.prepareBinaryData(file.data, fileName, mimeType);
		return {
			json: {
				courseId,
				fileName: binary.fileName,
				mimeType: binary.mimeType,
				fileSize: file.data.length,
			},
			binary: { [binaryPropertyName]: binary },
		};
	},
};
