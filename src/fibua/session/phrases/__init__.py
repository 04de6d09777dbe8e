"""Each rule set's phrasebook: a sentence for every event kind it emits."""
