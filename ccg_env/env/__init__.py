"""Environment interfaces over the engine: PettingZoo AEC, Gymnasium single-agent and vector envs, codecs."""
