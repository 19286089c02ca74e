import { captureScenarios } from './capture-scenarios';

// A code-mode catalog model: no `tools` field; tools travel in an `additional_tools` input item.
captureScenarios('gpt-6.1-sol', { codeMode: true });
