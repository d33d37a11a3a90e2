import ArgumentParser
import Logging

extension Logger.Level: @retroactive ExpressibleByArgument {}
